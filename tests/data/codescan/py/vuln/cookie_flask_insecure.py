    resp = make_response(redirect("/dashboard"))
    resp.set_cookie("session_token", token, httponly=False, secure=False)
    return resp
