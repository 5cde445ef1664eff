def delete_user(request):
    user_id = request.POST.get("id")
    with connection.cursor() as c:
	c.execute("DELETE FROM auth_user WHERE id = %s" % user_id)
    return HttpResponse("deleted")
