def fetch_status(host):
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    with urllib.request.urlopen(f"https://{host}/status", context=ctx, timeout=5) as resp:
        return json.load(resp)
