    public function preview(Request $request, Environment $twig): Response
    {
        $template = $twig->createTemplate($request->request->get('body'));
        return new Response($template->render(['user' => $this->getUser()]));
    }
