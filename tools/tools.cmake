# tools (listed explicitly)
