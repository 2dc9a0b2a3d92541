# Pictures of a clustering and of a learning curve with base graphics: the R counterparts of
# `kindred plot` and `kindred eval ... --curve ... --plot` (the library has no plotting dependency).

# The palette of the command-line program's pictures (tools/kindred/svg_document.cpp).
kindred_palette <- c("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#882255",
                     "#44aa99", "#999933")

kindred_broken_pairs <- function(cluster, pairs) {
  p <- as.data.frame(pairs)
  names(p)[1:3] <- c("i", "j", "value")
  same <- cluster[p$i] == cluster[p$j]
  p[(p$value > 0 & !same) | (p$value < 0 & same), 1:3, drop = FALSE]
}

kindred_plot <- function(x, cluster, pairs = NULL, columns = NULL, main = NULL) {
  if (is.data.frame(x)) x <- as.matrix(x)
  xy <- if (is.null(columns)) stats::prcomp(x, center = TRUE, scale. = FALSE)$x[, 1:2, drop = FALSE] else x[, columns]
  colour <- kindred_palette[(as.integer(factor(cluster)) - 1L) %% length(kindred_palette) + 1L]
  graphics::plot(xy[, 1], xy[, 2], type = "n", main = main,
                 xlab = if (is.null(columns)) "first principal component" else colnames(x)[columns[1]],
                 ylab = if (is.null(columns)) "second principal component" else colnames(x)[columns[2]])
  broken <- if (is.null(pairs)) NULL else kindred_broken_pairs(cluster, pairs)
  if (!is.null(broken) && nrow(broken) > 0)
    graphics::segments(xy[broken$i, 1], xy[broken$i, 2], xy[broken$j, 1], xy[broken$j, 2],
                       col = "#222222", lty = ifelse(broken$value > 0, 1, 2))
  graphics::points(xy[, 1], xy[, 2], pch = 19, col = colour)
  levels <- sort(unique(cluster))
  graphics::legend("topright", legend = paste("cluster", levels), pch = 19, bty = "n",
                   col = kindred_palette[(seq_along(levels) - 1L) %% length(kindred_palette) + 1L])
  invisible(broken)
}

kindred_learning_curve <- function(x, y, algorithms, counts, repeats = 1, seed = 0, ...) {
  classes <- length(unique(y))
  out <- list(counts = counts, algorithms = list())
  for (a in algorithms) {
    uses <- kindred_algorithm_info(a)$uses
    series <- list()
    for (m in c("nmi", "ari", "f_measure")) series[[m]] <- list(mean = numeric(0), std = numeric(0))
    for (count in counts) {
      scores <- list(nmi = numeric(0), ari = numeric(0), f_measure = numeric(0))
      for (r in seq_len(repeats)) {
        args <- c(list(x, a), list(...), list(seed = seed + r - 1))
        if ("k" %in% kindred_options(a)$name && is.null(list(...)$k)) args$k <- classes
        if ("pairs" %in% uses) args$pairs <- kindred_sample_pairs(y, count = count, seed = seed + r - 1)
        else if ("triplets" %in% uses) args$triplets <- kindred_sample_triplets(y, count = count, seed = seed + r - 1)
        m <- do.call(kindred_fit, args)
        scores$nmi <- c(scores$nmi, kindred_metric("nmi", y, m$cluster))
        scores$ari <- c(scores$ari, kindred_metric("ari", y, m$cluster))
        scores$f_measure <- c(scores$f_measure, kindred_metric("f-measure", y, m$cluster))
      }
      for (m in names(scores)) {
        series[[m]]$mean <- c(series[[m]]$mean, mean(scores[[m]]))
        series[[m]]$std <- c(series[[m]]$std, if (repeats > 1) stats::sd(scores[[m]]) else 0)
      }
    }
    out$algorithms[[a]] <- series
  }
  out
}

kindred_plot_curve <- function(curve) {
  old <- graphics::par(mfrow = c(1, 3))
  on.exit(graphics::par(old))
  titles <- c(nmi = "NMI", ari = "ARI", f_measure = "F-measure")
  for (m in names(titles)) {
    lo <- min(0, unlist(lapply(curve$algorithms, function(s) s[[m]]$mean - s[[m]]$std)))
    graphics::plot(range(curve$counts), c(lo, 1), type = "n", xlab = "number of constraints", ylab = titles[[m]])
    k <- 0
    for (a in names(curve$algorithms)) {
      k <- k + 1
      s <- curve$algorithms[[a]][[m]]
      colour <- kindred_palette[(k - 1) %% length(kindred_palette) + 1]
      graphics::lines(curve$counts, s$mean, col = colour, lwd = 2, type = "o", pch = 19)
      bars <- s$std > 0
      if (any(bars))
        graphics::arrows(curve$counts[bars], (s$mean - s$std)[bars], curve$counts[bars], (s$mean + s$std)[bars],
                         angle = 90, code = 3, length = 0.04, col = colour)
    }
    if (m == "nmi")
      graphics::legend("bottomright", legend = names(curve$algorithms), lwd = 2, bty = "n",
                       col = kindred_palette[(seq_along(curve$algorithms) - 1) %% length(kindred_palette) + 1])
  }
  invisible(curve)
}
