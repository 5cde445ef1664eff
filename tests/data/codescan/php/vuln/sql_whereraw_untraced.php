    public function scopeNamed($query, $name)
    {
        return $query->whereRaw("name = '$name'");
    }
