client = Octokit::Client.new(access_token: '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')
