# A value that is not a number is a usage error (exit 2) quoting what was given.
cp "$KINDRED_DATA/iris.csv" .
kindred fit kmeans --data iris.csv --k many
