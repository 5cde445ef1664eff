const octokit = new Octokit({ auth: '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' });
const stripe = require('stripe')('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');
