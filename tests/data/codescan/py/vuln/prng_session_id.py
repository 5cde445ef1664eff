    session_id = str(random.getrandbits(128))
    redis.setex(f"sess:{session_id}", 3600, user.id)
