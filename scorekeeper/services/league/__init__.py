"""The league's use cases: a league opened by one of its links and set up (`setup`), its
cards (`card`, `at_tables`), the secretary's corrections (`fixture_corrections`,
`team_corrections`, `losses`), its links (`links`), what its pages show (`views`,
`people`) and its season out and back in (`archive`).

Importers name the module they use: nothing is imported here.
"""
