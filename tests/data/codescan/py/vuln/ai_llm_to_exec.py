def run_analysis(question, df):
    resp = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": f"Write pandas code to answer: {question}. The dataframe is df."}],
    )
    code = resp.choices[0].message.content.strip("`").removeprefix("python")
    exec(code, {"df": df, "pd": pd})
