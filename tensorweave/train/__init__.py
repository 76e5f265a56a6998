"""tensorweave.train"""
