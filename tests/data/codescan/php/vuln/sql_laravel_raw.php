    public function index(Request $request)
    {
        $sort = $request->input('sort', 'created_at');
        return DB::select("SELECT * FROM orders ORDER BY $sort DESC");
    }
