    return $this->render('preview.html.twig', ['body' => $request->request->get('body')]);
