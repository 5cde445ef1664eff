<?php

namespace App\Services;

use Illuminate\Support\Str;

final class FileStore
{
    public function __construct(private string $root) {}

    public function save(string $data): string
    {
        $id = (string) Str::uuid();
        file_put_contents($this->root . '/' . $id . '.bin', $data);
        return $id;
    }

    public function load(string $id): string
    {
        if (!Str::isUuid($id)) {
            throw new \InvalidArgumentException('bad id');
        }
        return file_get_contents($this->root . '/' . $id . '.bin');
    }
}
