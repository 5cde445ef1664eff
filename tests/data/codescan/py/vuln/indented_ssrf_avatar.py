    def fetch_remote_avatar(self, request):
        avatar = request.data.get("avatar")
        if not avatar:
            return Response(status=400)
        r = requests.get(avatar, timeout=5)
        request.user.profile.avatar.save("avatar.png", ContentFile(r.content))
        return Response(status=204)
