        $html = Blade::render('Hello ' . $request->input('name') . ', your order shipped.');
