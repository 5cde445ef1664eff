  const host = req.query.host;
  const child = spawn('ping -c 3 ' + host, { shell: true });
  child.stdout.pipe(res);
