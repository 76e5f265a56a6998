"""tensorweave.datasets"""
