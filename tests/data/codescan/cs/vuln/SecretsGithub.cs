    var github = new GitHubClient(new ProductHeaderValue("deployer")) { Credentials = new Credentials("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") };
