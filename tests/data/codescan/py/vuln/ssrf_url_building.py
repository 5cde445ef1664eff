def get_avatar():
    host = request.headers.get("X-Avatar-Host", "avatars.internal")
    user = request.args["user"]
    avatar_url = f"http://{host}/v1/users/{user}/avatar.png"
    data = urllib.request.urlopen(avatar_url).read()
    return Response(data, mimetype="image/png")
