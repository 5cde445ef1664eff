KEY = base64.b64decode(os.environ["FIELD_KEY"])
IV = b"\x00" * 16

def encrypt_ssn(ssn: str) -> bytes:
    cipher = AES.new(KEY, AES.MODE_CBC, IV)
    return cipher.encrypt(pad(ssn.encode(), AES.block_size))
