// Replaced by the tf layout verbs (issue 2).
