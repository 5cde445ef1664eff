prefs = pickle.loads(bytes.fromhex(request.cookies.get("prefs")))
