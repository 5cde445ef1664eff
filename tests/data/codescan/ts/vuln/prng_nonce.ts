const nonce = Math.random().toString(36).slice(2);
