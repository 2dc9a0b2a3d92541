# A data file that does not exist: exit 1, the message names the file and the reason.
kindred fit kmeans --data missing.csv --k 3
