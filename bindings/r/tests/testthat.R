library(testthat)
library(kindred)
test_check("kindred")
