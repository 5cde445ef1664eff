const inviteCode = [...Array(8)].map(() => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join('');
