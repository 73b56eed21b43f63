"""Where tiles go: the layout as a tree of open sides and its count, the one placement rule
the tile buttons and the moves share, which laid tile touches which, and each place in
table words."""
