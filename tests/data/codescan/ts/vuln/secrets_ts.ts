export const config = {
  anthropicApiKey: 'sk-ant-api03-qF3FSf7IFx8pSFHYlyM2SUoi65iUwz0yVTE-cPcphGw0LFqE8F8K2sEey8Rx3hTL-kM1UmkxoUbBL_n3fq7h_tKH9xu4FAA',
  slackToken: 'xoxb-810732843468-0029159774816-IuQC8zn2Opa24xWWereoT0Xq',
  port: 8080,
};
