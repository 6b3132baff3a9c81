// Replaced by the plugin skeleton (issue 2).
