// Filled in by the layout work (issue 2).
