    public function restore(string $blob)
    {
        $state = unserialize(base64_decode($blob));
        $this->items = $state['items'];
    }
