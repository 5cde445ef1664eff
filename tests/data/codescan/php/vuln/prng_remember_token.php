    protected function issueRememberToken(User $user): string
    {
        $rememberToken = sha1(microtime() . $user->email);
        $user->forceFill(['remember_token' => hash('sha256', $rememberToken)])->save();
        return $rememberToken;
    }
