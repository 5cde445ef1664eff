const AWS = require('aws-sdk');

AWS.config.update({
  accessKeyId: 'AKIA3WI7QFBTHRGWDCHK',
  secretAccessKey: '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',
  region: 'eu-west-1',
});
