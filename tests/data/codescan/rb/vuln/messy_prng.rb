token = rand(36**32).to_s(36) # unique token for the magic link
user.update(login_token: token, login_token_sent_at: Time.now)
