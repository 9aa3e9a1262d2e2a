class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_out, d_in))

    def forward(self, x):
        q, k = x @ self.W_query, x @ self.W_key
        v = x @ self.W_value.T
        attn = torch.softmax(q @ k.T / k.shape[1] ** 0.5, dim=-1)
        return (v.T @ attn).T
