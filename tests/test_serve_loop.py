"""The server's network loop asks an idle kept-alive connection nothing on each turn (a
league night keeps thousands open), and still hears it the moment it sends."""

import socket

from waitress import wasyncore

from scorekeeper.serve_loop import SteadyPoll


class Phone(wasyncore.dispatcher):
    """A kept-alive connection that counts how often the loop asks what it waits for."""

    def __init__(self, sock, map):
        super().__init__(sock, map=map)
        self.asked, self.heard = 0, b""

    def readable(self):
        self.asked += 1
        return True

    def writable(self):
        return False

    def handle_read(self):
        self.heard += self.recv(100)


def test_idle_connections_are_asked_once_a_full_check_and_heard_when_they_send():
    connections = {}
    pairs = [socket.socketpair() for _ in range(3)]
    phones = [Phone(ours, connections) for ours, _theirs in pairs]
    try:
        steady = SteadyPoll(connections)
        for _ in range(50):
            steady.turn(0)
        assert [phone.asked for phone in phones] == [1, 1, 1]  # the first turn's full check
        pairs[1][1].send(b"GET /board")
        steady.turn(1.0)
        assert phones[1].heard == b"GET /board" and phones[0].heard == b""
        phones[2].close()  # gone from the map: gone from the poll set
        steady.turn(0)
        assert sorted(steady.registered) == sorted(phone._fileno for phone in phones[:2])
    finally:
        for phone in phones:
            phone.close()
        for _ours, theirs in pairs:
            theirs.close()
