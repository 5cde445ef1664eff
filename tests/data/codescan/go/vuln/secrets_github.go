var githubToken = "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"
