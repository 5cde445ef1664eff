        bio = request.form.get("bio", "")
        current_user.bio = bio
        db.session.commit()
        return render_template("profile.html", user=current_user, bio=Markup(bio))
