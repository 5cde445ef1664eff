    def create_reset_code(self, user):
        code = "".join(random.choice(string.digits + string.ascii_uppercase) for _ in range(10))
        PasswordReset.objects.create(user=user, code=code, expires=timezone.now() + timedelta(hours=1))
        return code
