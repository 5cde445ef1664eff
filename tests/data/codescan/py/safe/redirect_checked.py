def safe_next(default="/"):
    target = request.args.get("next", default)
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = default
    return redirect(target)
