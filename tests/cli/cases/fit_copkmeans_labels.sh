# A fit with a fixed seed writes the same labels on 1 and 2 threads: the point between the two
# groups follows its must-link, and the cannot-link keeps the groups apart. The summary printed on
# stdout holds the fit's time, so only the labels are compared.
printf 'x,y\n0,0\n0,1\n1,0\n10,10\n10,11\n11,10\n5,5\n' > points.csv
printf 'i,j,value\n6,3,1\n1,3,-1\n' > pairs.csv
kindred fit copkmeans --data points.csv --pairs pairs.csv --k 2 --seed 7 --threads 1 --out one.csv > /dev/null
kindred fit copkmeans --data points.csv --pairs pairs.csv --k 2 --seed 7 --threads 2 --out two.csv > /dev/null
cmp one.csv two.csv && cat one.csv
