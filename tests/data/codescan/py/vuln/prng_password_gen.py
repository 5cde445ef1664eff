def generate_password():
    chars = string.ascii_letters + string.digits + "!@#$%"
    password = ''.join(random.sample(chars, 12))
    return password
