# An algorithm's help: its options, defaults and ranges, straight from its option table
# (a change of the table shows up here).
kindred help kmeans
