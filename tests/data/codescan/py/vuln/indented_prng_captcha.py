        challenge = str(random.randint(1000, 9999))
        session["captcha"] = challenge
        return send_file(render_captcha_png(challenge), mimetype="image/png")
