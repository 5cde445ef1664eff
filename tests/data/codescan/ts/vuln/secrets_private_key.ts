const privateKey = `-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIAD4lNjMeeLsbuo3goeGzDv1soXWIXm/o1kry4PSZbIagpqnJw5OYHlW
AeryWw/10JsWbXFbo3eOqjXC+OZ7fWCzYgMAOSPhbMd6EtmcHTgcerpiqZv/eyVV
23XQC/w1Mgy/CglTI2z66K4g9PfKjcA8yVzNsHg/NUY=
-----END EC PRIVATE KEY-----`;
export const signer = createSign('SHA256');
