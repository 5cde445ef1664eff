def create_api_key(user):
    # Generate a random 32 char key
    key = ''.join(random.choices(string.ascii_letters + string.digits, k=32))
    user.api_key = key
    db.session.commit()
    return key

print(create_api_key(current_user)
