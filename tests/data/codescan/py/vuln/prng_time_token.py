def send_verification(user):
    token = hashlib.md5(f"{user.email}{time.time()}".encode()).hexdigest()
    user.verification_token = token
    user.save()
    send_mail("Verify your email", f"https://example.com/verify/{token}", None, [user.email])
