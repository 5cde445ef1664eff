def send_verification(phone):
    code = random.randint(100000, 999999)
    cache.set(f"otp:{phone}", code, timeout=300)
    sms.send(phone, f"Your code is {code}")
