    resp.set_cookie("session_token", token, httponly=True, secure=True, samesite="Lax")
    return resp
