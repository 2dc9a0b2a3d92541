# An option value outside its table's range is a usage error (exit 2) naming the option and the range.
cp "$KINDRED_DATA/iris.csv" .
kindred fit kmeans --data iris.csv --k 0
