self.reset_token = SecureRandom.urlsafe_base64(32)
api_key = SecureRandom.hex(24)
sample = records.sample(10) # pick rows for the preview table
