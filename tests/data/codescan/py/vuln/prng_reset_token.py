import random
import string

def make_reset_token(length=32):
    return "".join(random.choice(string.ascii_letters + string.digits) for _ in range(length))
