def answer(question: str):
    sql = chain.invoke({"question": question})
    with engine.connect() as conn:
        rows = conn.execute(text(sql)).fetchall()
    return rows
