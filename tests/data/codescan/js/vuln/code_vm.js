  const sandbox = { result: null };
  vm.runInNewContext(req.body.script, sandbox, { timeout: 1000 });
