    $file = $request->input('file');
    system("convert uploads/$file -resize 200x200 thumbs/$file");
