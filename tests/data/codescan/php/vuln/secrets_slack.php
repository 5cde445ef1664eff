$slack = new Client('https://hooks.slack.com/services/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');
